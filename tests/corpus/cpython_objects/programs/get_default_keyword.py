env = {"HOME": "/root"}
shell = env.get("SHELL", default="/bin/sh")
print(shell)
