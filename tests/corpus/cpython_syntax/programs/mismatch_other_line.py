settings = {
    'paths': [
        'a',
        'b',
    },
}
