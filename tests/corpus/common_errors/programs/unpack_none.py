def evaluate(model_scores, threshold):
    if not model_scores:
        print("no scores to evaluate")
        return
    hits = sum(s >= threshold for s in model_scores)
    accuracy = hits / len(model_scores)
    return accuracy, hits


def run(batches):
    for i, batch in enumerate(batches):
        accuracy, hits = evaluate(batch, threshold=0.5)
        print(f"batch {i}: accuracy={accuracy:.2f} ({hits} hits)")


run([[0.9, 0.2, 0.7], [0.4, 0.6], []])
