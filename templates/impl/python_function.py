"""%%name%%: the implementation of the tool '%%id%%' (scaffolded by `toolbox new`).

toolbox calls %%function%%(**arguments) with the arguments the contract's schema allows and
returns the result as JSON. Raise an exception to report a failure. Replace the body with your
tool's logic, and keep the contract's schema in step with the parameters.
"""


def %%function%%(text: str) -> dict:
    """Count the words, characters and lines of `text`."""
    return {
        "words": len(text.split()),
        "characters": len(text),
        "lines": len(text.splitlines()),
    }
