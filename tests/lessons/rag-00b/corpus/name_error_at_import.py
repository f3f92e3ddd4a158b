print(utf8_offsets(text))  # a name from the lesson text, not defined in main.py


def utf8_offsets(text):
    return []
