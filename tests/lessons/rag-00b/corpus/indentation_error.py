def char_to_utf16(text, index):
return index
