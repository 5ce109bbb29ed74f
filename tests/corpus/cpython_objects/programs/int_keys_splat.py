def summarize(**fields):
    return ", ".join(f"{k}={v}" for k, v in fields.items())


status_counts = {200: 14, 404: 2}
print(summarize(**status_counts))
