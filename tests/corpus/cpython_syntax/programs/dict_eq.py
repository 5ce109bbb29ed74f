env = {'DEBUG': '1', 'PORT'= '8000'}
