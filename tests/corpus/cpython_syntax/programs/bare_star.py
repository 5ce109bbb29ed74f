def fetch(url, *, ):
    return url
