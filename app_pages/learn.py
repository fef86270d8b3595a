"""Learn: one card per mechanism (idea, formula, guarantee, assumptions, sampler, source) and a glossary."""

import streamlit as st

from geodp_app.pages import this_page
from geodp_app.ui import LABEL_STYLE, honesty_badge, readable, teach
from geodp_core.mechanisms import mechanism_specs
from geodp_core.mechanisms.cards import CARD_ORDER, CARDS, GLOSSARY
from geodp_core.scenario import Scenario

PAGE = this_page(__file__)

#: A ready Explorer scenario per mechanism card (declared in each mechanism's spec): the mechanism where it works,
#: beside a reference mechanism.
TRY_IT = {name: Scenario(**spec.try_it) for name, spec in mechanism_specs().items() if spec.try_it is not None}
#: Cards whose mechanism has a page of its own instead of an Explorer scenario.
TRY_IT_PAGE = {"kng_regression": "app_pages/regression.py"}


def try_it_query(scenario):
    """URL query opening the Explorer on exactly ``scenario``.

    Every field is given (not only those that differ from the defaults), so settings remembered from earlier in the
    session are not mixed in; one URL value per mechanism, as the multiselect writes them.
    """
    query = {key: str(getattr(Scenario(), key)) for key in ("dim", "data", "spread", "n", "radius", "notion", "eps",
                                                           "delta", "mu", "alpha", "rho", "seed", "n_releases")}
    query.update(manifold=scenario.manifold, center_offset="")
    query.update(scenario.to_query_params())
    query["mechanisms"] = list(scenario.mechanisms)
    if not scenario.metric:
        query.pop("metric", None)
    return query


st.title("Learn")
st.caption(
    "How each mechanism releases a private Fréchet mean on a manifold, what it guarantees and under which "
    "assumptions. Each card is declared beside its mechanism's code, so a notebook can print the same cards "
    "(see the README)."
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
else:
    teach("**How to read a card.** *Idea* says what the noise does, the formula gives its law, *Guarantee* the "
          "exact privacy statement and *Assumptions* when it holds. Press **Try it** to open the Explorer on a ready "
          "scenario with that mechanism.")
for name in shown:
    card = CARDS[name]
    with st.container(border=True):
        st.markdown(f"#### {card['title']}")
        st.markdown(f":blue-badge[{card['notion']}]")
        st.markdown(f"**Idea.** {readable(card['idea'])}")
        st.latex(card["formula"])
        st.markdown(f"**Guarantee.** {readable(card['guarantee'])}")
        st.markdown(f"**Assumptions.** {readable(card['assumptions'])}")
        st.markdown(f"**Sampler.** {readable(card['sampler'])}")
        st.caption(f"Source: {card['source']}")
        if name in TRY_IT:
            st.page_link("app_pages/explorer.py", label="Try it", icon=":material/play_circle:",
                         query_params=try_it_query(TRY_IT[name]),
                         help="Open the Explorer on a ready scenario with this mechanism (you can change anything).")
        elif name in TRY_IT_PAGE:
            st.page_link(TRY_IT_PAGE[name], label="Try it", icon=":material/play_circle:",
                         help="Open the page of this mechanism with its default settings.")

st.subheader("Honesty labels")
st.markdown(" ".join(honesty_badge(label) for label in LABEL_STYLE))
st.caption(GLOSSARY["Honesty labels"])

st.subheader("Glossary")
terms = [term for term in GLOSSARY if _matches(term, GLOSSARY[term])]
if terms:
    teach("Two ideas run through every page: the **sensitivity Δ** (how far one person's record can move the mean) and "
          "the **ONE target guarantee** (every mechanism in a comparison is calibrated to the same privacy promise). "
          "Start with those two entries.")
else:
    st.info(f"No glossary term mentions “{query}”.")
for term in terms:
    with st.expander(term, expanded=bool(needle)):
        st.markdown(readable(GLOSSARY[term]))
