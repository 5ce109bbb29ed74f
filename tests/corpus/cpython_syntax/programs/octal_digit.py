perm = 0o6489
