import datetime

day_number = 738000
print(datetime.date.fromordinal())
