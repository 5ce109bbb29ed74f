def main():
    return reslt


main()
