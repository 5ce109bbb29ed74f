"""Several failures reported together as an ExceptionGroup."""


def check(batch: list[int]) -> None:
    errors: list[Exception] = []
    if not batch:
        errors.append(ValueError("empty batch"))
    errors.append(TypeError("unsupported operand type(s) for +: 'int' and 'NoneType'"))
    raise ExceptionGroup("batch checks failed", errors)


check([])
