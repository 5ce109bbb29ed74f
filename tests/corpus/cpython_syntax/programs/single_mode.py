snippet = 'import math\nprint(math.pi)\n'
exec(compile(snippet, '<repl>', 'single'))
