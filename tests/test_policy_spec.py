"""Policy specs NAME[P=V,...]: one parser for every command; the exact policy is recorded."""
import pytest

from policies import load_policy
from policies.spec import PolicySpec, parse_policy_spec
from sim.errors import UsageError


@pytest.mark.parametrize("text,base,params", [
    ("expert", "expert", ()),
    ("expert[cull_max_missing=0]", "expert", (("cull_max_missing", 0.0),)),
    (" expert[ cull_max_missing = 0 , reserve_red=2.5 ] ", "expert",
     (("cull_max_missing", 0.0), ("reserve_red", 2.5))),
    ("dir/mine.py:brave[reserve=3]", "dir/mine.py:brave", (("reserve", 3.0),)),
    ("C:/x/mine.py:brave", "C:/x/mine.py:brave", ()),
    ("learned[weights=my runs/é net.json]", "learned", (("weights", "my runs/é net.json"),)),
    (r"search[base=C:\My Policies\pøl icy.py:decide,rollouts=8]", "search",
     (("base", r"C:\My Policies\pøl icy.py:decide"), ("rollouts", 8.0))),
    ("learned[weights=123]", "learned", (("weights", "123"),)),     # a file named 123
    ("learned[weights=runs/lr=0.1/net.json]", "learned", (("weights", "runs/lr=0.1/net.json"),)),
])
def test_parse(text, base, params):
    assert parse_policy_spec(text) == PolicySpec(base, params)


@pytest.mark.parametrize("text,message", [
    ("expert[cull_max_missing=0", "malformed policy variant"),
    ("expert cull_max_missing=0]", "malformed policy variant"),
    ("expert[]", "malformed policy variant"),
    ("expert[cull_max_missing]", "malformed policy variant"),
    ("expert[=1]", "malformed policy variant"),
    ("expert[a=1,,b=2]", "malformed policy variant"),
    ("expert[a=1][b=2]", "malformed policy variant"),
    ("[a=1]", "malformed policy variant"),
    ("expert[a=1,a=2]", "sets 'a' twice"),
    ("expert[reserve_red=abc]", "must be a number"),
    ("learned[weights=a\tb.json]", "holds a control character"),
    ("expert[reserve_red=nan]", "must be a finite number"),
    ("expert[reserve_red=inf]", "must be a finite number"),
    ("expert[reserve_red=-Infinity]", "must be a finite number"),
    ("", "empty policy name"),
])
def test_malformed(text, message):
    with pytest.raises(UsageError, match=message):
        parse_policy_spec(text)


def test_variant_loads_with_parameters_and_canonical_name():
    base = load_policy("expert")
    v = load_policy("expert[cull_max_missing=0,reserve_red=1.50]")
    assert v.name == "expert[cull_max_missing=0,reserve_red=1.5]"
    params = dict(zip(v.param_names, v.params))
    assert params["cull_max_missing"] == 0 and params["reserve_red"] == 1.5
    assert dict(zip(base.param_names, base.params))["cull_max_missing"] == 1
    rec = v.record()
    assert rec["base"] == "expert" and rec["overrides"] == {"cull_max_missing": 0.0,
                                                            "reserve_red": 1.5}
    assert rec["file"].endswith("policies/expert.py") and len(rec["sha256"]) == 64
    more = load_policy("expert[cull_max_missing=0]", {"reserve_red": "2"})   # --param on top
    assert more.name == "expert[cull_max_missing=0,reserve_red=2]"


@pytest.mark.parametrize("text,message", [
    ("expert[nosuch=1]", "no parameter 'nosuch'"),
    ("nope[a=1]", "unknown policy 'nope'"),
    ("nofile.py:f[a=1]", "not found"),
])
def test_variant_errors(text, message):
    with pytest.raises(UsageError, match=message):
        load_policy(text)
