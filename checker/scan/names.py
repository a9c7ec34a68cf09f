"""Names in an article's code, read without running it.

An article's snippets run in one session, so a name a snippet uses may come from an earlier
one. When a snippet raises ``NameError``, what the rest of the article does with the name
decides the verdict: a name that an earlier snippet defines (but that did not run to the end)
is not this snippet's fault; a name the article defines nowhere, or only later, is. Authors
also leave out the imports every reader adds (:data:`CUSTOMARY`), and write method lists with
placeholder names (``tensor.add_(value)``, :data:`PLACEHOLDERS`).
"""

from __future__ import annotations

import ast

#: Imports authors leave out because every reader adds them: name -> import line.
CUSTOMARY: dict[str, str] = {
    "torch": "import torch",
    "np": "import numpy as np",
    "nn": "import torch.nn as nn",
    "F": "import torch.nn.functional as F",
    "optim": "import torch.optim as optim",
    "deepcopy": "from copy import deepcopy",
    "copy": "import copy",
    "math": "import math",
    "time": "import time",
}

#: Names that documentation uses for "a tensor", "a value", "your model": in a method list or
#: a fragment of a training loop they are placeholders, not variables the article forgot.
PLACEHOLDERS = frozenset(
    {
        "value", "values", "other", "tensor", "tensors", "input", "inputs", "output",
        "outputs", "dim", "src", "index", "indices", "mask", "size", "shape", "scalar",
        "alpha", "dtype", "device", "model", "net", "network", "optimizer", "opt", "loss",
        "loss_fn", "criterion", "data", "dataset", "loader", "dataloader", "data_loader",
        "train_loader", "target", "targets", "label", "labels", "batch", "epochs",
        "num_epochs", "epoch", "lr", "params", "parameters", "module", "fn", "func",
        "function", "args", "kwargs", "ctx", "grad_output", "self",
    }
)  # fmt: skip


def bound(tree: ast.AST) -> set[str]:
    """Names a piece of code binds anywhere in it: assignments, loop and ``with`` targets,
    imports, functions and classes (not parameters: they are local to their function; nor
    the target of an augmented assignment, ``tensor += value``, which reads the name first:
    it updates a name bound elsewhere, or raises ``NameError`` where none is)."""
    updated = {
        id(node.target)
        for node in ast.walk(tree)
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Store)
            and id(node) not in updated
        ):
            found.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                found.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
    return found


def used(tree: ast.AST) -> set[str]:
    """Names a piece of code reads."""
    return {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }


def customary_for(tree: ast.AST) -> tuple[tuple[str, str], ...]:
    """The customary imports a snippet may need: the customary names it reads and does not
    bind itself (a snippet that imports ``torch`` anywhere needs no help with it)."""
    wanted = (used(tree) - bound(tree)) & set(CUSTOMARY)
    return tuple((name, CUSTOMARY[name]) for name in sorted(wanted))
