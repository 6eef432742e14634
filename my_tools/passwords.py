"""Random passwords and passphrases from the operating system's secure random source (secrets)."""

import math
import secrets
import string

SYMBOLS = "!@#$%^&*-_=+?"
AMBIGUOUS = set("Il1O0o")


def generate_password(length=16, count=1, symbols=True, avoid_ambiguous=False):
    """`count` random passwords of `length` characters with upper/lower case letters, digits and
    (optionally) symbols; every password contains at least one character of each class."""
    for name, value, low, high in (("length", length, 8, 128), ("count", count, 1, 20)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{name} must be a whole number from {low} to {high}")
    classes = [string.ascii_lowercase, string.ascii_uppercase, string.digits] + ([SYMBOLS] if symbols else [])
    if avoid_ambiguous:
        classes = ["".join(c for c in chars if c not in AMBIGUOUS) for chars in classes]
    alphabet = "".join(classes)
    passwords = []
    for _ in range(count):
        while True:
            candidate = "".join(secrets.choice(alphabet) for _ in range(length))
            if all(any(c in chars for c in candidate) for chars in classes):
                break
        passwords.append(candidate)
    entropy = round(length * math.log2(len(alphabet)), 1)
    return {"passwords": passwords, "length": length, "entropy_bits": entropy, "alphabet_size": len(alphabet)}
