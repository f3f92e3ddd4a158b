def utf8_offsets(text)
    return [[i, i, i + 1] for i in range(len(text))]
