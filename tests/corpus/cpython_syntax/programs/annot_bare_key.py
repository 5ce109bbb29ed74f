headers = {}
'Content-Type': 'application/json'
