"""The one part of leafexplain that goes online: `leafexplain update` filling the source cache (`raw` fetches a
file, `update` plans and runs the fetches). Nothing that explains imports it."""
