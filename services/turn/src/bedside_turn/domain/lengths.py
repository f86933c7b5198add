"""A length of book time as the turn says it: rounded to minutes, "about" when it is rounded."""


def said_length(ms: int) -> str:
    """ "less than a minute", "about 10 minutes", "about 1 hour and 5 minutes"."""
    minutes = round(ms / 60_000)
    if minutes < 1:
        return "less than a minute"
    hours, minutes = divmod(minutes, 60)
    said = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in ((hours, "hour"), (minutes, "minute")) if n]
    return "about " + " and ".join(said)
