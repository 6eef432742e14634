"""%%name%%: the implementation of the tool '%%id%%' (scaffolded by `toolbox new`).

toolbox calls %%function%%(**arguments) with the arguments the contract's schema allows and
returns the result as JSON (a dict, list, string or number). Raise an exception to report a
failure; raise ValueError for arguments the tool cannot use. Keep the parameters in step with
the contract's schema.
"""


def %%function%%(input: str):
    raise NotImplementedError("%%id%% is a stub: write its code in %%impl%%")
