s = "hello"
s[0] = "H"
