def render(template, title):
    return template.format(title=title)


base = {"template": "<h1>{title}</h1>", "title": "Home"}
print(render(**base, title="About"))
