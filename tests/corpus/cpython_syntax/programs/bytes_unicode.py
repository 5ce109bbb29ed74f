marker = b'✓ done'
