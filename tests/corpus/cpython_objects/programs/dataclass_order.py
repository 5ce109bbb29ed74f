from dataclasses import dataclass


@dataclass
class Job:
    retries: int = 3
    command: str
