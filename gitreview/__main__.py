from gitreview.cli import run

if __name__ == "__main__":  # not in a worker process, which imports this module too
    run()
