user, n = "bo", 3
print("%s uploaded %d files to %s" % (user, n))
