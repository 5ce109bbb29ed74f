# record: e598f909d802614c
class Normalizer:
    def transform(value):
        return value / 255


norm = Normalizer()
print(norm.transform(128))
