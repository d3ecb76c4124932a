"""Merging back the file a merge was made from reports nothing skipped for the names the first
merge gave: ' (merged)' was ginscore's own rename, not one made there."""


def test_merging_back_reports_no_rename_that_a_merge_made(ok, db_path, tmp_path):
    theirs = tmp_path / "theirs.json"
    ok("new", "standard", "Ann", "Ben", "--dealer", "Ann", "--name", "friday")
    ok("--db", str(theirs), "new", "standard", "Cy", "Di", "--dealer", "Cy", "--name", "friday")
    first = ok("merge", str(theirs), "--json").json()
    assert [row["name"] for row in first["added"]] == ["friday (merged)"] and first["skipped"] == []
    back = ok("--db", str(theirs), "merge", str(db_path), "--json").json()
    assert back["skipped"] == [], back
    assert [row["name"] for row in back["added"]] == ["friday (merged)"]
