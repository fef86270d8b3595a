r"""The studies: each page's computation, in ONE shape.

Every study module exposes a frozen ``Settings`` (fields with declared ranges or choices, validated on
construction: :mod:`geodp_core.studies.settings`), ``run(scenario, settings)`` returning a result object, and
``figures(result)`` returning the Plotly figures that draw it.

===================================  ========================================================================
module                               study
===================================  ========================================================================
:mod:`.explorer`                     one scenario: data, true mean, calibrations, releases
:mod:`.curves`                       utility curves and sweeps (implementation: :mod:`geodp_core.experiments`)
:mod:`.conformal`                    the conformal laboratory (:mod:`geodp_core.conformal_lab`)
:mod:`.regression_lab`               the geodesic-regression demo (KNG releases and prediction errors)
:mod:`.audit`                        empirical privacy audits (:mod:`geodp_core.audit`)
:mod:`.curvature`                    the curvature lesson (:mod:`geodp_core.curvature_lesson`)
:mod:`.reproductions`                the source papers' experiments, one module per paper, one spec per id
===================================  ========================================================================

Layering: studies sit above the pipeline, mechanisms, summaries, privacy, data and geometry (which never import a
study), and below the figures only through ``figures(result)``: a study imports :mod:`geodp_core.viz` inside
``figures`` and nowhere else, and :mod:`geodp_core.viz` never imports a study. The command line
(:mod:`.reproductions.cli`) sits above both. Nothing here imports Streamlit.
"""
