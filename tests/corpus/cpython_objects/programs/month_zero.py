import datetime

months = [0, 1]
print([datetime.date(2024, m, 1) for m in months])
