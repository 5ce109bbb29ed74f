import datetime
alarm = datetime.time(07, 30)
print(alarm)
