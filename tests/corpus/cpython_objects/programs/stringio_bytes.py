import io, csv

out = io.StringIO()
out.write(b"a,b\n")
