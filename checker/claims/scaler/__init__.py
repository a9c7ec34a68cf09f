"""Claims of the page "GradScaler in practice" (docs/topics/gradscaler.md).

Every probe trains a tiny ``float32`` linear model for one step or a few with
``torch.amp.GradScaler(device)`` and compares what it finds with the same step taken without
a scaler: the scaler must change the loss scale and nothing else. The CPU has a scaler of its
own (``torch.amp.GradScaler("cpu")``), so the probes run on the CPU as well as on CUDA.

Each section of the page is a module, listed in :data:`SECTIONS`; ``_model.py`` holds the
model and what several sections use to compare their results.
"""

#: The sections, in the order the pages show them.
SECTIONS = (
    "changes",
    "several",
    "accumulation",
    "window",
    "penalty",
    "state",
    "skipped",
    "scheduler",
)
