"""Celsius to Fahrenheit: python3 convert.py CELSIUS"""

import sys


def fahrenheit(celsius: float) -> float:
    return celsius * 9 / 5 - 32


if __name__ == "__main__":
    print(fahrenheit(float(sys.argv[1])))
