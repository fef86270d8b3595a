"""Learn: one card per mechanism (idea, formula, guarantee, assumptions, sampler, source) and a glossary."""

import streamlit as st

from geodp_app.ui import LABEL_STYLE, honesty_badge
from geodp_app.url_params import clean_url
from geodp_core.mechanisms.cards import CARD_ORDER, CARDS, GLOSSARY

clean_url("learn")  # bad URL values are reported beside their controls, never crash the page

st.title("Learn")
st.caption(
    "How each mechanism releases a private Fréchet mean on a manifold, what it guarantees and under which "
    "assumptions. The text lives in geodp_core.mechanisms.cards, so a notebook can print the same cards."
)

query = st.text_input("Filter cards and glossary", value="", key="learn_filter",
                      help="Show only cards and terms containing this text (case-insensitive).")
needle = query.strip().lower()


def _matches(*texts):
    return not needle or any(needle in str(t).lower() for t in texts)


st.subheader("Mechanisms")
shown = [name for name in CARD_ORDER if _matches(*CARDS[name].values())]
if not shown:
    st.info(f"No mechanism card mentions “{query}”.")
for name in shown:
    card = CARDS[name]
    with st.container(border=True):
        st.markdown(f"#### {card['title']}")
        st.markdown(f":blue-badge[{card['notion']}]")
        st.markdown(f"**Idea.** {card['idea']}")
        st.latex(card["formula"])
        st.markdown(f"**Guarantee.** {card['guarantee']}")
        st.markdown(f"**Assumptions.** {card['assumptions']}")
        st.markdown(f"**Sampler.** {card['sampler']}")
        st.caption(f"Source: {card['source']}")

st.subheader("Honesty labels")
st.markdown(" ".join(honesty_badge(label) for label in LABEL_STYLE))
st.caption(GLOSSARY["Honesty labels"])

st.subheader("Glossary")
terms = [term for term in GLOSSARY if _matches(term, GLOSSARY[term])]
if not terms:
    st.info(f"No glossary term mentions “{query}”.")
for term in terms:
    with st.expander(term, expanded=bool(needle)):
        st.markdown(GLOSSARY[term])
