"""Each lesson's settings, a group each, composed into `decode.config.settings.Settings`.

A lesson that needs settings adds a module here with one `BaseSettings` class of its fields, and
`Settings` inherits it: the environment variable names, the defaults and the order of
precedence are those of one class, and `.env.example` lists every group's fields.
"""
