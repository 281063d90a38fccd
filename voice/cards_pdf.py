"""placeholder"""
def add_cards_pdf_options(p): 
    p.add_argument("--pdf", type=__import__("pathlib").Path, metavar="FILE")
def write_cards_pdf(adapter, lang, args):
    raise NotImplementedError
