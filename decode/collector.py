"""Python's cycle collector paused while `decode run` starts: what start-up builds is kept for good.

On its way to the first model request a run imports pydantic-ai, the provider SDK and decode:
over 100,000 objects (classes, functions, schemas), nearly none of them garbage. The collector,
triggered every few hundred new objects, walks the young ones again and again and, twice, all of
them: about 270 collections before the first request (ADR-0114 has the figures). `pause()`
switches it off when the `run` command is chosen; `resume()`, once the model's first answer has
begun, freezes what exists (`gc.freeze`: no later collection walks those objects again) and
switches it back on. Objects are still freed when their last reference goes; only reference
cycles made during start-up wait (under a megabyte measured, and frozen with the rest).
"""

import gc

_paused = False
"""Did `pause()` switch the collector off (so `resume()` switches it back on)?"""


def pause() -> None:
    """Switch the cycle collector off until `resume()`; a collector already off stays as it is."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Freeze what start-up built and switch the collector back on, if `pause()` switched it off."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
