from meeple.cli.app import main

main()
