from lib import size

count: int = size("abc")
