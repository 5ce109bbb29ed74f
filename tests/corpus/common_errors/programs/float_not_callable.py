temperatures = {"mon": 21.5, "tue": 23.0, "wed": 19.8, "thu": 25.1}

max = 0.0
for day, t in temperatures.items():
    if t > max:
        max = t
print("hottest:", max)

coolest_day = min(temperatures, key=temperatures.get)
spread = max(temperatures.values()) - temperatures[coolest_day]
print("spread:", spread)
