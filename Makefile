.PHONY: run test setup lint prod
run:    ## run the app on the embedded default (SQLite, demo data)
	./scripts/run.sh
test:   ## run every test tier
	./scripts/test.sh
setup:
	./scripts/setup.sh
lint:
	.venv/bin/ruff check .
prod:   ## several backend instances behind nginx on PostgreSQL + Redis (docs/deploy.md)
	./scripts/prod.sh start
