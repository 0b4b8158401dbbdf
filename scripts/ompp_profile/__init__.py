# SPDX-License-Identifier: BSD-3-Clause
"""Read ompp's JSON profiles and derive views from them.

Layering: ``reader`` turns a file into the ``model`` (plain dataclasses);
``views`` are pure functions over the model that return text,
``breakdown`` and ``html_report`` the data and page of ``ompp-view html``.  Nothing here
imports at module level anything outside the standard library.
"""
from .model import Node, Predecessor, Profile, Region, ThreadMetrics
from .reader import SUPPORTED_VERSION, ProfileFormatError, read_json, read_profile

__all__ = [
    "Node",
    "Predecessor",
    "Profile",
    "ProfileFormatError",
    "Region",
    "ThreadMetrics",
    "SUPPORTED_VERSION",
    "read_json",
    "read_profile",
]
