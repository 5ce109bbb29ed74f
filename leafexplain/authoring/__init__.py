"""Writing and checking records: `new` scaffolds one, `verify` checks records against their repository,
`import` copies records into the user's folder. Nothing in the explain pipeline imports this package."""
