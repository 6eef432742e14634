"""Safe arithmetic: the expression is parsed with `ast` and only numbers, operators and a fixed
set of math functions are evaluated (never eval/exec), with limits so that 9**9**9 cannot hang."""

import ast
import math
import operator

MAX_EXPRESSION_LENGTH = 1000
MAX_EXPONENT = 10_000
MAX_FACTORIAL = 1000
MAX_RESULT_BITS = 100_000

FUNCTIONS = {
    "sqrt": math.sqrt, "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "exp": math.exp, "ln": math.log, "log": math.log, "log10": math.log10, "log2": math.log2,
    "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "asin": math.asin, "acos": math.acos, "atan": math.atan, "atan2": math.atan2,
    "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
    "degrees": math.degrees, "radians": math.radians, "hypot": math.hypot,
    "abs": abs, "round": round, "floor": math.floor, "ceil": math.ceil,
    "min": min, "max": max, "pow": None, "factorial": None, "gcd": math.gcd, "lcm": math.lcm,
    "comb": math.comb, "perm": math.perm,
}
CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "π": math.pi}
BINARY = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: None,
}
UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
# Calculator-style spellings people type: 2^10, 3×4, 8÷2, full-width brackets and digits.
NORMALISE = str.maketrans({"^": "**", "×": "*", "÷": "/", "（": "(", "）": ")", "，": ",", "－": "-", "＋": "+", "＊": "*", "／": "/"})


def _power(base, exponent):
    if abs(base) not in (0, 1):
        if abs(exponent) > MAX_EXPONENT:
            raise ValueError(f"exponent {exponent} is too large (limit {MAX_EXPONENT})")
        # Big integers are exact, so 1000000 ** 10000 would be computed digit by digit: refuse early.
        if abs(exponent) * math.log2(abs(base)) > MAX_RESULT_BITS:
            raise ValueError("the result is too large to compute")
    return operator.pow(base, exponent)


def _factorial(n):
    if n != int(n) or n < 0:
        raise ValueError("factorial needs a non-negative whole number")
    if n > MAX_FACTORIAL:
        raise ValueError(f"factorial({int(n)}) is too large (limit {MAX_FACTORIAL})")
    return math.factorial(int(n))


def _eval(node):
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in CONSTANTS:
            return CONSTANTS[node.id]
        raise ValueError(f"unknown name '{node.id}'; constants: pi, e, tau; functions: {', '.join(sorted(FUNCTIONS))}")
    if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow):
            return _power(left, right)
        return BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in UNARY:
        return UNARY[type(node.op)](_eval(node.operand))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        name = node.func.id
        if name not in FUNCTIONS:
            raise ValueError(f"unknown function '{name}'; available: {', '.join(sorted(FUNCTIONS))}")
        args = [_eval(a) for a in node.args]
        if name == "pow":
            return _power(*args) if len(args) == 2 else _arity(name)
        if name == "factorial":
            return _factorial(*args) if len(args) == 1 else _arity(name)
        try:
            return FUNCTIONS[name](*args)
        except TypeError:
            _arity(name)
    raise ValueError(f"'{ast.unparse(node)}' is not allowed: use numbers, + - * / // % ** ^, parentheses and math functions")


def _arity(name):
    raise ValueError(f"wrong number of arguments for {name}()")


def calculate(expression):
    """Evaluate an arithmetic expression such as 'sqrt(2) * (3 + 4) ^ 2' and return the value."""
    text = (expression or "").strip().translate(NORMALISE)
    if not text:
        raise ValueError("expression is empty; try something like 2 * (3 + 4)")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ValueError(f"expression is longer than {MAX_EXPRESSION_LENGTH} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as err:
        raise ValueError(f"cannot parse the expression at character {err.offset or 0}: {text!r}") from None
    try:
        value = _eval(tree)
    except ZeroDivisionError:
        raise ValueError("division by zero") from None
    except OverflowError:
        raise ValueError("the result is too large to represent") from None
    except ValueError as err:
        if str(err) == "math domain error":
            raise ValueError("math domain error: the input is outside the function's domain (e.g. sqrt of a negative number)") from None
        raise
    if isinstance(value, complex):
        raise ValueError("the result is a complex number; for the real cube root of a negative number use cbrt()")
    if isinstance(value, float) and math.isfinite(value):
        value = float(f"{value:.15g}")  # 0.1 + 0.2 reads as 0.3, as on a pocket calculator
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)
    if isinstance(value, int) and abs(value) > 2**53:
        # JSON readers (JavaScript among them) round integers past 2**53: return exact digits as text.
        return {"expression": expression, "result": str(value)}
    if isinstance(value, float) and not math.isfinite(value):
        return {"expression": expression, "result": str(value)}
    return {"expression": expression, "result": value}
