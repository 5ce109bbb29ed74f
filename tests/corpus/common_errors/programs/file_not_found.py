import csv
import statistics
import sys


def load_readings(path):
    with open(path, newline="") as fh:
        return [float(row["temperature"]) for row in csv.DictReader(fh)]


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "data/sensor_readings.csv"
    readings = load_readings(path)
    print("mean temperature:", statistics.mean(readings))
