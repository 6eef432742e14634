"""Implementations of the tools in tool_registry/ (standard library only).

Each module is imported by toolbox's python_function runner with the project root on sys.path;
functions take the tool's arguments as keyword arguments, return JSON-serialisable values and
raise an exception (whose message the user sees) when they cannot do what was asked.
"""
