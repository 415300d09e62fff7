from gitreview.cli import main

if __name__ == "__main__":  # not in a worker process, which imports this module too
    raise SystemExit(main())
