"""Never ends at import."""
while True:
    pass
