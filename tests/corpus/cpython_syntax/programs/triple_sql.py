QUERY = """
SELECT id, name
FROM users
WHERE active = 1

print(QUERY)
