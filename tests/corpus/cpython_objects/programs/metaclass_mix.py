from abc import ABCMeta


class PluginMeta(type):
    registry = []


class Base(metaclass=ABCMeta):
    pass


class Plugin(metaclass=PluginMeta):
    pass


class CsvPlugin(Base, Plugin):
    pass
