from inventory import Warehouse


def format_report(warehouse: Warehouse) -> str:
    lines = [f"warehouse {warehouse.name}"]
    for item, qty in sorted(warehouse.stock.items()):
        lines.append(f"  {item:<10} {qty:>5}")
    return "\n".join(lines)
