def find_user(uid):
    if uid == 1:
        return {"name": "ana"}


print(find_user(2)["name"])
