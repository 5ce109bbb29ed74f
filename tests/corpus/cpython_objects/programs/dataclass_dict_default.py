from dataclasses import dataclass


@dataclass
class Settings:
    env: dict = {}
