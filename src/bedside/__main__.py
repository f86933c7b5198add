from bedside.cli import main

main()
